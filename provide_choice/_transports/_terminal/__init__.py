"""The server's own terminal as a transport: `TerminalTransport` (`_transport`) shows a question in
the terminal this process runs in (`serve --http`, `provide-choice ask`).

It draws the question with the terminal view every terminal shares (`_transports._terminal_view`),
loaded when a question is shown: importing the transport loads nothing heavy.
"""
