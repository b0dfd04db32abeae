"""The question view: one question as the page and the app both draw it (neither transport imports
the other; both import this).

- `_state`: `QuestionPage`, what a page of the question keeps and every change the person makes
  there, checked before it is kept;
- `_shown`: the state it draws, as JSON-ready data, built from the page and the question;
- `_drafts`: what the person has chosen and typed so far;
- `_pages`: the pages of the questions a surface shows, and what each message a page sends does;
- `_document`: its markup (`question.html`), its script (`script/`) and its words, joined.
"""
