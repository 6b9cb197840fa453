/** Starts the whole product (services, stand-ins, API, workers) the way `npm start` does. */
export { startStack, type Stack, type StackOptions } from "./stack";
export { ROOT, DATA_DIR } from "./paths";
