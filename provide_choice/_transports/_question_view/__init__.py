"""The question view: one question as the page and the app both draw it. `_state` holds what it
shows and what the person changes there; `_document` joins its markup and script."""
