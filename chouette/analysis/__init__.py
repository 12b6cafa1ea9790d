"""Analysis of the board games by GNU Backgammon, run as a separate program (issue 27).

``decisions`` lists a game's decisions (pure); ``runner`` hands them to ``gnubg`` and reads
its judgement; ``summary`` adds the errors up per player. The app never imports gnubg: it runs
``gnubg -t -q -p chouette/analysis/gnubg_script.py`` as a separate process.
"""
