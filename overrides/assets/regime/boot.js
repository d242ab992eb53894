// Loaded early (async, from the head) on pages that have widgets: start Python in its worker now.
import { python } from "./runtime.js";

python.start();
