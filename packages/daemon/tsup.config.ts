import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/boot/index.ts", "src/option-specs.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
