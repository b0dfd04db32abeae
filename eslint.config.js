// The lint for every JavaScript file of the repository (`make lint` runs `eslint .`): a file added
// anywhere is linted without a change here, by the rules of the kind of script it is.
// - The pages' scripts (provide_choice/...): plain browser scripts, inline in their page, with no
//   modules and no bundler. The question page's parts (provide_choice/_transports/_question_view/script/),
//   the MCP Apps' parts (provide_choice/_transports/_app/view/), the pages' words
//   (provide_choice/_bridge/words.js) and the inbox's script are joined by the server into one strict
//   function, so each part names what it takes from the others (`/* global name */`) and what it
//   gives them (`/* exported name */`): a name used but not given, or given but not used, is found
//   here (a name two parts declare, by a test of the joined script).
// - The chat's elements (chat_ui/): Vue components NiceGUI loads in the browser as ES modules.
// - Anything outside the packages (the e2e tests' helpers, this file): Node scripts, except the MCP
//   Apps test host (e2e/support/app_host/), an ES module bundled for the browser.
import js from "@eslint/js";
import globals from "globals";

// Scripts in the packages are shipped with them and run in the browser; the rest runs in Node.
const PACKAGES = ["chat_ui/**", "present_choices/**", "provide_choice/**"];

const STRICT = {
  eqeqeq: "error",
  "no-shadow": ["error", { builtinGlobals: false }],
  "no-var": "error",
  "prefer-const": "error",
};

export default [
  {
    // site/: the documentation site mkdocs builds (its theme's bundled scripts are not ours).
    ignores: ["**/.venv/", "**/node_modules/", "**/build/", "**/dist/", "site/"],
  },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: STRICT,
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    ignores: PACKAGES,
    languageOptions: { globals: globals.node },
  },
  {
    files: ["e2e/support/app_host/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    files: ["chat_ui/**/*.js", "present_choices/**/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    files: ["provide_choice/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: globals.browser,
    },
    rules: {
      "no-implicit-globals": "error",
    },
  },
  {
    files: [
      "provide_choice/_transports/_question_view/script/*.js",
      "provide_choice/_transports/_app/view/*.js",
      "provide_choice/_bridge/words.js",
      "provide_choice/_history/_inbox/inbox.js",
    ],
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
