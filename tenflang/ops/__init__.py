"""The op layer: the op table and everything keyed by op.

    from tenflang import ops
    ops.TABLE["matmul"]          # the op's entry: arity, attributes, forward, rules

* `table`: THE op table, one entry per op (`defop`, `defunary`, `defbinary`);
* `entries`: its vocabulary, `Op`, `Attr` and `Rule`;
* `forwards`, `convolution`, `embedding`, `modes`: the batched forward functions
  the entries name, on an array module `xp`;
* `shapes`: the shape rules;
* `other_names`: other frameworks' names for the ops, for the parser's hints.

Everything here depends on the base layer alone; the language, the compiler
and the interpreter read this table.
"""
from .table import TABLE, lookup

__all__ = ["TABLE", "lookup"]
