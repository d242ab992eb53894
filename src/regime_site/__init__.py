"""Build-time side of the Regime site: the MkDocs plugin and the HTML the pages render.

Nothing here runs in the browser; the browser runs ``regime_core`` from the wheel this
package builds.
"""
