"""The history: the SQLite store every server writes (`_store`: the file, its schema, what writes
it), the questions as it holds them and how they are read (`_records`), the recorder that feeds it
from a server's questions (`_recorder`), the `provide-choice history` command (`_command`), whether
a question's server still runs (`_process`), the inbox page that shows what waits in every server
(`_inbox/`), and where a running inbox is, for the pages' link to it (`_inbox_link`)."""
