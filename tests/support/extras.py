"""Optional extras some tests need: without one, those tests are skipped, saying what to install.

`pip install -e '.[test]'` then `pytest` works: a test module that needs the `llm` extra starts with
`pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)`, before its other imports.
"""

NEEDS_LLM_EXTRA = "needs the llm extra (pydantic-ai): pip install -e '.[test,llm]'"
