"""Hypothesis strategies shared by the property tests."""

from hypothesis import strategies as st

#: Any JSON value, small: what a hostile or careless file may hold.
json_values = st.recursive(
    st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)
