// The lint for the pages' scripts (`make lint`): plain browser scripts, inline in their page, with no
// modules and no bundler. The question page's parts (provide_choice/_transports/_portal/page/) are joined by the
// server into one strict function, so each part names what it takes from the others
// (`/* global name */`) and what it gives them (`/* exported name */`): a name used but not given,
// or given but not used, is found here (a name two parts declare, by a test of the joined script).
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: ["**/.venv/", "**/node_modules/", "**/build/", "**/dist/"],
  },
  js.configs.recommended,
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module" },
  },
  {
    files: ["provide_choice/_transports/_portal/**/*.js", "provide_choice/_history/_inbox/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: globals.browser,
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      eqeqeq: "error",
      "no-implicit-globals": "error",
      "no-shadow": ["error", { builtinGlobals: false }],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["provide_choice/_transports/_portal/page/*.js"],
    languageOptions: {
      // The server puts "use strict" at the head of the joined script.
      parserOptions: { ecmaFeatures: { impliedStrict: true } },
    },
    rules: {
      // A part's top-level names are shared with the other parts, not with the window.
      "no-implicit-globals": "off",
    },
  },
];
