import builtins
import unittest
from test.support import swap_item, swap_attr
class RebindBuiltinsTests(unittest.TestCase):
    def test_modify_builtins_from_leaf_function(self):
        with swap_attr(builtins, "len", len):
            def bar():
                builtins.len = lambda x: 4
            def foo(modifier):
                l = []
                l.append(len(range(7)))
                modifier()
                l.append(len(range))
                return l
            self.assertEqual(foo(bar), [7, 4])
if __name__ == "__main__":
    unittest.main()
