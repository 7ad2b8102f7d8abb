"""Runs program.py as `python program.py` would, counting each compile of program.py's source.

CPython raises the `compile` audit event for every call of the built-in `compile()`, with the
source and the file name: the count is kept in `compiles`, read by client.py with an evaluation
(`__import__('counter').compiles`) while the program is paused.
"""

import os
import runpy
import sys

program = os.path.join(os.path.dirname(os.path.abspath(__file__)), "program.py")
compiles = 0


def hook(event, args):
    global compiles
    if event == "compile" and len(args) > 1 and args[1] == program:
        compiles += 1


sys.modules.setdefault("counter", sys.modules[__name__])
sys.addaudithook(hook)
sys.argv = [program]
runpy.run_path(program, run_name="__main__")
