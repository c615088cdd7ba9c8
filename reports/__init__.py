"""The balance report and the command line: how rumsim's answers are presented.

A page is a declaration, ``PAGE`` in ``reports/<game>.py`` (its runs, its
sections, its answer's sentences); ``reports.page`` writes the frame every
page shares and ``reports.sections`` the sections, each presenting one
registered analysis. ``reports.build.build_report(out_dir)`` writes every
page, the index and the CSV tables; ``reports.cli`` is ``rumsim``.
"""
