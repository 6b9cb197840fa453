require("tsx/cjs/api").register();
require("./w.ts");
