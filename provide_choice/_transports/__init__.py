"""The transports: where a question is shown. `_base` is the seam every transport follows (published
as `provide_choice.transports`), `_registry` lists them; one folder per transport, named as its
`transport` value: `_terminal`, `_terminal_handoff`, `_web`, `_elicitation`, `_app`. The page and
the app draw the same question view (`_question_view`)."""
