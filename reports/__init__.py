"""The balance report: matplotlib figures, a small HTML page builder and one page per game.

``reports.build.build_report(out_dir)`` writes the whole report; each game's
page lives in ``reports/<game>.py`` and is registered in ``reports.build.PAGES``.
"""
