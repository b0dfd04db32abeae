// The words a page shows, in the person's language. The server sends, inline as JSON (id "words"),
// the page's messages in every language it has a catalog for, by language tag, each with how the
// language writes a countdown; the page speaks the one its state names (the app view: the host's,
// until the server says). A message a catalog lacks is English. Messages fill named placeholders
// ({count}); a plural is its forms by plural category, picked with Intl.PluralRules; a clock time
// left ("4:59") is written with the language's digits and separator. Markup the server drew
// (data-words="key") is said again in the language the page turns to.
/* exported words, speak, languageFor */

const CATALOGS = JSON.parse(document.getElementById("words").textContent);
const SOURCE_LANGUAGE = "en";
const TRADITIONAL_REGIONS = ["tw", "hk", "mo"];
const LATIN_CLOCK = { digits: "latn", separator: ":" };

function wordsIn(tag) {
  const catalog = CATALOGS[tag] ?? {};
  const messages = { ...CATALOGS[SOURCE_LANGUAGE].messages, ...catalog.messages };
  const plurals = new Intl.PluralRules(tag);
  const fill = (message, values) => message.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  return {
    tag,
    t: (key, values = {}) => fill(messages[key], values),
    n: (key, count, values = {}) => {
      const forms = messages[key];
      return fill(forms[plurals.select(count)] ?? forms.other, { count, ...values });
    },
    // Seconds as minutes:seconds, "4:59", for a countdown.
    clock: clockIn(tag, catalog.clock ?? LATIN_CLOCK),
  };
}

// The countdown's writing in `tag`. Latin digits are written here: a first Intl.NumberFormat loads
// the browser's number data, about 50 ms of a new tab's start, so only other digits pay for it.
function clockIn(tag, { digits, separator }) {
  if (digits === "latn") {
    return (seconds) => `${Math.floor(seconds / 60)}${separator}${String(seconds % 60).padStart(2, "0")}`;
  }
  let formats = null;
  return (seconds) => {
    formats ??= [
      new Intl.NumberFormat(tag, { numberingSystem: digits, useGrouping: false }),
      new Intl.NumberFormat(tag, { numberingSystem: digits, minimumIntegerDigits: 2, useGrouping: false }),
    ];
    return `${formats[0].format(Math.floor(seconds / 60))}${separator}${formats[1].format(seconds % 60)}`;
  };
}

let spoken = wordsIn(document.documentElement.lang in CATALOGS ? document.documentElement.lang : SOURCE_LANGUAGE);

// The words of the language the page speaks now.
function words() {
  return spoken;
}

// Speak `tag` from now on (a language the page has no catalog for is English): the document's
// language and the markup's words. Returns whether the language changed.
function speak(tag) {
  const next = tag in CATALOGS ? tag : SOURCE_LANGUAGE;
  if (next === spoken.tag) return false;
  spoken = wordsIn(next);
  document.documentElement.lang = next;
  for (const node of document.querySelectorAll("[data-words]")) node.textContent = spoken.t(node.dataset.words);
  return true;
}

// The language of the first of `tags` (a host's locale, best first) that a catalog serves, as the
// server chooses it (present_choices._translation.candidates): "zh", "zh-CN", "zh-SG" and
// "zh-Hans" are Simplified Chinese; "zh-TW" and "zh-Hant" are not.
function languageFor(tags) {
  const available = new Map(Object.keys(CATALOGS).map((tag) => [tag.toLowerCase().replace(/-/g, "_"), tag]));
  for (const tag of tags) {
    for (const name of candidates(tag)) {
      if (available.has(name)) return available.get(name);
    }
  }
  return SOURCE_LANGUAGE;
}

function candidates(tag) {
  const parts = String(tag).split(".")[0].split("@")[0].trim().toLowerCase().split(/[-_]/);
  const [language, ...rest] = parts;
  if (!/^[a-z]{2,3}$/.test(language)) return [];
  let script = rest.find((part) => /^[a-z]{4}$/.test(part)) ?? null;
  const region = rest.find((part) => part.length === 2 || /^\d{3}$/.test(part)) ?? null;
  if (language === "zh" && script === null) script = TRADITIONAL_REGIONS.includes(region) ? "hant" : "hans";
  const names = [[language, script, region], [language, script], [language, region], [language]]
    .map((subtags) => subtags.filter(Boolean).join("_"));
  return [...new Set(names)];
}
