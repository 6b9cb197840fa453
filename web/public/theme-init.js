// Applied before first paint so the chosen theme never flashes (a file, not inline, for the CSP).
(function () {
  try {
    var p = localStorage.getItem("theme-preference") || "system";
    var dark = p === "dark" || (p === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
    document.documentElement.classList.toggle("dark", dark);
  } catch (e) {}
})();
