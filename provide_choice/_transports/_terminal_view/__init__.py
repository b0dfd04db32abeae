"""The terminal view: one question in a terminal with questionary, from settings to summary line.

`run_terminal_flow` knows nothing about MCP or servers: it takes a validated request and the live
question (its settings and deadline, `LiveQuestion`), and returns what the person did (a
`Submission`, a cancel, the deadline seen); `_contract._meaning` says what that means. The
server's own terminal (`_terminal`), the terminal the agent opens (`_terminal_handoff`'s
`choice-terminal`) and `provide-choice ask` all show the question through it, so they look and
behave the same; neither transport imports the other, both import this. Every screen runs under the
deadline, shows the time left, erases itself when done, and treats Ctrl-C as "cancel this question"
(never as "stop the server").

It loads questionary and prompt_toolkit, so import it only where a question is shown in a terminal.

The parts, each its own module:
- `_flow`: the order of the screens and how the flow ends (`run_terminal_flow`, the summary line);
- `_batch_flow`: a batch, one question after another (`run_batch_flow`), and `_review`, its last
  screen;
- `_settings_editor`: the settings surface and the editor behind "Change settings", and
  `_setting_values`, a setting's values to choose from (a change takes a choice);
- `_option_list`, `_notes`, `_text_answer`: the question's screens, by mode;
- `_keys`: the keys added to questionary's lists (notes, digits); `_screen`: the frame every screen
  runs in (the back key of a batch, the room of a preview); `_filter`: a long list that filters as
  the person types; `_preview`: an option's preview cut to its room;
- `_state`: what the screens share; `_list_values`: what a list entry stands for;
- `_closing`: the line a question leaves, in the person's language; `_cut`: lines cut at the
  window's width, ending with `…`;
- `_markdown`: agent markdown as terminal text; `_style`: the colours;
- `_alert`: the terminal's own alert once the question has waited, and `_alert_sequence`, the escape
  sequence that asks this terminal to notify (agent text made plain by `provide_choice._alerts`).
"""
