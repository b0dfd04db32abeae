"""The conformance modules' own asserts say what differed, as a test module's do."""

import pytest

pytest.register_assert_rewrite("conformance", "terminal_person")
