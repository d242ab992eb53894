// The learner's name for a mentor's class report: one name for the Drill and Practice pages, kept in this
// browser and written only into the files the learner downloads.
const KEY = "regime.learner";

/** Fill `input` with the stored name and keep what is typed; returns a teardown. */
export function bindLearnerName(input) {
  try {
    input.value = window.localStorage.getItem(KEY) || "";
  } catch {
    /* storage refused: the field starts empty */
  }
  const keep = () => {
    try {
      window.localStorage.setItem(KEY, input.value);
    } catch {
      /* storage refused: the name lives until the page closes */
    }
  };
  input.addEventListener("input", keep);
  return () => input.removeEventListener("input", keep);
}
