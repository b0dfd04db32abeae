"""Optional extras some tests need: without one, those tests are skipped, saying what to install.

`pip install -e '.[test]'` then `pytest` works: a test module that needs the `llm` extra starts with
`pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)`, before its other imports. The tests
of the AG-UI client need the `ag-ui` extra, and those that run it against a real AG-UI agent need
pydantic-ai's AG-UI adapter as well (the `ag-ui` extra installs both). That adapter, installed without
the AG-UI types, raises a plain `ImportError` (not `ModuleNotFoundError`), so its `importorskip`
passes `exc_type=ImportError`: without it, pytest fails to collect the module instead of skipping it.
"""

NEEDS_LLM_EXTRA = "needs the llm extra (pydantic-ai): pip install -e '.[test,llm]'"
NEEDS_AG_UI_EXTRA = "needs the ag-ui extra (ag-ui-protocol): pip install -e '.[test,ag-ui]'"
NEEDS_AG_UI_SERVER = (
    "needs pydantic-ai's AG-UI adapter, the tests' AG-UI agent: pip install -e '.[test,ag-ui]'"
)
NEEDS_PUSH_EXTRA = "needs the push extra (apprise): pip install -e '.[test,push]'"
NEEDS_NOTIFY_EXTRA = "needs the notify extra (desktop-notifier): pip install -e '.[test,notify]'"
