"""The transports: where a question is shown. `_base` is the seam every transport follows (published
as `provide_choice.transports`), `_registry` lists them; `_recommended` is a stand-in person for
testing agents, `_raw_tool` a tool taking its arguments raw. One folder per transport, named as its
`transport` value: `_terminal`, `_terminal_handoff`, `_web`, `_elicitation`, `_app`. No transport
imports another (`make lint` checks it): what two of them draw alike is a view of its own, below
them. The page and the app draw the same question view (`_question_view`); the server's terminal
and the hand-off's `choice-terminal` draw the same terminal view (`_terminal_view`)."""
