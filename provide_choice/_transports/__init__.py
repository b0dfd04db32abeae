"""The transports: where a question is shown. `_base` is the seam every transport follows, `_kinds`
describes them; one folder per transport (`_terminal`, `_handoff`, `_portal`, `_elicitation`)."""
