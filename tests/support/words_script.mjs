// Runs the pages' words.js in Node, for tests/provide_choice/test_page_words.py: reads {script,
// catalogs, tags, lang, seconds, numberFormat} as JSON on stdin, prints the language languageFor
// picks for each tag (the app views pick the host's so, before the server says the person's) and
// the countdown of `seconds` as a page speaking `lang` shows it. With numberFormat false, the
// script runs where Intl.NumberFormat throws (a page that must not load the number data).
import { readFileSync } from "node:fs";
import vm from "node:vm";

const input = JSON.parse(readFileSync(0, "utf-8"));
const document = {
  getElementById: () => ({ textContent: JSON.stringify(input.catalogs) }),
  documentElement: { lang: input.lang ?? "en" },
  querySelectorAll: () => [],
};
const withoutNumbers = {
  ...Object.fromEntries(Object.getOwnPropertyNames(Intl).map((name) => [name, Intl[name]])),
  NumberFormat: () => {
    throw new Error("Intl.NumberFormat was used");
  },
};
const context = vm.createContext({ document, Intl: input.numberFormat === false ? withoutNumbers : Intl });
vm.runInContext(`${input.script}\nthis.languageFor = languageFor;\nthis.words = words;`, context);
process.stdout.write(
  JSON.stringify({
    languages: input.tags.map((tag) => context.languageFor([tag])),
    clock: context.words().clock(input.seconds ?? 0),
  }),
);
