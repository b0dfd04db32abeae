"""The choices in a Streamlit chat, on the same agents as `choices-chat` (no key needed for the demo).

    .venv/bin/pip install -e '.[streamlit]'
    .venv/bin/streamlit run examples/streamlit_chat.py --server.address 127.0.0.1 --server.port 8501 --server.headless true

Streamlit listens on every interface unless `--server.address` says otherwise. The agent comes from
the environment: `CHOICES_CHAT_AGENT` (`demo` by default, `script`, `llm`, `ag-ui`), with
`CHOICES_CHAT_SCRIPT`, `CHOICES_CHAT_MODEL`, `CHOICES_CHAT_BASE_URL` or `CHOICES_CHAT_URL`; a bad
value shows as one line on the page. Streamlit's usage statistics are off (`.streamlit/config.toml`
beside this file says so too): nothing leaves this machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This checkout's packages, for a Python that lacks them: it is then told how to get them.
sys.path.append(str(Path(__file__).resolve().parents[1]))
from present_choices._extras import needs_extra

with needs_extra("examples/streamlit_chat.py", "streamlit"):
    import streamlit as st

    from chat_ui._agents._settings import SettingError, agent_from_environment
    from chat_ui.streamlit import chat

st.set_page_config(page_title="Choices chat")
st.title("Choices chat")
try:
    agent = agent_from_environment()
except SettingError as error:
    st.error(str(error))
    st.stop()
chat(agent)
