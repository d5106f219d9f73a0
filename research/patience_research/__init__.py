"""What the research rounds' scripts share: reading a `patience bench --json`
file and the exact McNemar test (benchfile), reading and writing value files
and judging one by play (valuefile), and the ranking metric and loss over a
position's moves (ranking). Install the research project (`pip install -e
research`) and import from here; no script patches sys.path.
"""
