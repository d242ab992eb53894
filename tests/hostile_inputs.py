"""Hostile and malformed inputs, shared by the hostile-input tests."""

HOSTILE = [
    "", " ", "\t\n", "NaN", "nan", "inf", "-inf", "Infinity", "1e400", "-1e400", "-0", "0", "-1", "1e-400",
    "٣١٢", "３１２", "\u22125", "\u20105", "5 TB/s/s", "TB/s 5", "5 5", "5e", "e5", ".", "1,2,,3", "1,,000", "0x10",
    "1_000", "%", "50%%", "x" * 100_000, "<img src=x onerror=alert(1)>", "<script>alert(1)</script>",
    '"><svg onload=alert(1)>', "javascript:alert(1)", "{{7*7}}", "${7*7}", "' OR 1=1 --", "\u202e123", "\x00",
    "🙂", "null", "true", "[]", "{}", "12 µs µs", "2 TB/s TB/s",
]
