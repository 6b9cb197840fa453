const MODEL_KEY = "default-model";

/** The model preselected on the solve page; a plain setting, not a secret. */
export function getDefaultModel(): string | null {
  return localStorage.getItem(MODEL_KEY);
}
export function setDefaultModel(id: string) {
  if (id) localStorage.setItem(MODEL_KEY, id);
  else localStorage.removeItem(MODEL_KEY);
}
