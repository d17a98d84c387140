"""Static HTML pages of recmem's results: the site of ``recmem report --html`` and the rich
displays (``_repr_html_``) of reports, claim results and condition sweeps in notebooks."""
