"""The Mentor page's widget, written from the core: the files it reads and the limits it states."""

from __future__ import annotations

from regime_core.grading.attempt import MAX_IMPORT_BYTES
from regime_core.grading.class_report import MAX_CLASS_FILES
from regime_site.markup import field as _field


def mentor_widget() -> str:
    """A class's files in, one report out: read one file at a time in the browser's worker, never uploaded."""
    files = ('<input type="file" name="files" multiple accept=".json,application/json">')
    return (
        f'<div class="regime-mentor" data-regime-widget="mentor" data-max-bytes="{MAX_IMPORT_BYTES}">'
        '<p class="regime-status" role="status" aria-live="polite"></p>'
        "<noscript><p>This page needs JavaScript: the files are read by Python running in your browser. The command"
        " line makes the same report: <code>regime grade class/ --markdown</code>.</p></noscript>"
        '<form data-search-exclude class="regime-mentor__form regime-attempt" novalidate aria-label="The class\'s files">'
        + _field("files", f"The class's files: attempt files and practice records, up to {MAX_CLASS_FILES:,} at once",
                 files)
        + '<p class="regime-mentor__drop regime-trace__drop" aria-hidden="true">or drop them here</p>'
        "</form>"
        '<progress class="regime-mentor__progress regime-trace__progress" max="1" value="0" hidden></progress>'
        '<div class="regime-mentor__result" aria-live="polite"></div>'
        "</div>"
    )
