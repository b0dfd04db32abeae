"""The local web bridge on 127.0.0.1 that the hand-off and the page share, and its shared helpers."""
