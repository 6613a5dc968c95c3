"""`by_choice`: a test where autoconv differs from Catalyst by choice and asserts its own
documented behaviour (docs/jax-tracing.md, "Coming from Catalyst"); `-m by_choice` counts them."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "by_choice: autoconv differs from Catalyst by choice (documented)"
    )
