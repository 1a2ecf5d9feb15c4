// The plugin's entry point (bundled into dist/plugin by scripts/build-plugin.js).
import { serve } from "./main";

serve();
