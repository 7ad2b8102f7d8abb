//! tree-sitter trees, which C and Python share: a walk that does not recurse, so that a program
//! nested 10^5 deep is analyzed rather than fatal.

use tree_sitter::Node;

/// Every node below `n` (itself first), in pre-order, without recursion.
pub(crate) fn visit<'t>(n: Node<'t>, f: &mut impl FnMut(Node<'t>)) {
    let mut c = n.walk();
    loop {
        f(c.node());
        if c.goto_first_child() {
            continue;
        }
        loop {
            if c.node() == n {
                return;
            }
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                return;
            }
        }
    }
}
