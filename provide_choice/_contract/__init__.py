"""The contract: what a question is and what its answer means. Nothing here shows anything, reads
or writes a file, and it imports nothing above it.

- What is asked: `_request` (what an agent may ask), `_batch` (several questions at once), `_call`
  (a question, a batch, or a poll), `_tool_schema` (the tool's published input schema);
- how it ends: `_outcomes` (the endings and replies, typed unions), `_meaning` and `_batch_meaning`
  (what the person did, and the one function that says what it means), `_answer_checks` (what an
  answer must be to be one), `_response` and `_batch_response` (the one `normalize`, the response);
- the person's settings: `_settings` (the model and its rules), `_setting_changes` (how a surface
  changes them, what it may show), `_setting_labels` (how every surface names them),
  `_presentation` (what they mean on a surface);
- `_transport_table` (every transport's `TransportKind`: the names all of these accept) and
  `_answers_file` (answers written in advance, and which rule fits a question).
"""
