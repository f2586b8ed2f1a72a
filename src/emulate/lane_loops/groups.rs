//! Cooperative groups' block in a lane loop: `cg::thread_block b =
//! cg::this_thread_block();` declared at the warp's level, `b.sync();` or
//! `cg::sync(b);` as the block's barrier, and `b.thread_rank()` and the
//! block's other sizes and indices in a lane's code. Nothing else of
//! cooperative groups is written out (tiles, coalesced groups and grids keep
//! their kernels on fibers).
//!
//! A name counts as a block group only where every use of it in the file is
//! one of these (so a name that also stands for a tile, or is passed to a
//! function that could wait in it, does not), and the namespace only where it
//! is `cooperative_groups` or a `namespace cg = cooperative_groups;` alias of
//! the file.

use std::collections::HashSet;

use super::source::File;

/// The members of a block group a lane may call: none of them waits.
const LANE_MEMBERS: &[&str] = &[
    "thread_rank",
    "size",
    "num_threads",
    "group_index",
    "thread_index",
    "dim_threads",
    "group_dim",
];

/// The file's block groups (see the module's doc).
#[derive(Default)]
pub(super) struct BlockGroups {
    /// `cooperative_groups` and the file's aliases of it.
    namespaces: HashSet<String>,
    names: HashSet<String>,
}

impl BlockGroups {
    pub(super) fn new(f: &File) -> Self {
        let mut groups = BlockGroups::default();
        groups.namespaces.insert("cooperative_groups".to_string());
        for k in 0..f.tokens.len() {
            // `namespace cg = cooperative_groups;`
            if f.is(k, "namespace")
                && f.ident(k + 1)
                && f.is(k + 2, "=")
                && f.is(k + 3, "cooperative_groups")
                && f.is(k + 4, ";")
            {
                groups.namespaces.insert(f.text(k + 1).to_string());
            }
        }
        let mut candidates = HashSet::new();
        for k in 0..f.tokens.len() {
            if let Some(name) = groups.declaration_at(f, k) {
                candidates.insert(f.text(name).to_string());
            }
        }
        // Every use of a candidate must be a declaration, a barrier or a
        // lane's member call.
        let mut uses_ok: HashSet<String> = candidates.clone();
        for k in 0..f.tokens.len() {
            let s = f.text(k);
            if !f.ident(k) || !uses_ok.contains(s) {
                continue;
            }
            let declared = groups.declaration_name(f, k);
            let member = f.is(k + 1, ".")
                && (LANE_MEMBERS.contains(&f.text(k + 2)) || f.is(k + 2, "sync"))
                && f.is(k + 3, "(")
                && f.is(k + 4, ")");
            let argument = k >= 5
                && f.is(k - 1, "(")
                && f.is(k - 2, "sync")
                && f.is(k - 3, ":")
                && f.is(k - 4, ":")
                && groups.namespaces.contains(f.text(k - 5))
                && f.is(k + 1, ")");
            if !(declared || member || argument) {
                uses_ok.remove(s);
            }
        }
        groups.names = uses_ok;
        groups
    }

    /// Whether `ns` `::` stands at `k`: the namespace of cooperative groups.
    fn qualified(&self, f: &File, k: usize) -> bool {
        f.ident(k) && self.namespaces.contains(f.text(k)) && f.is(k + 1, ":") && f.is(k + 2, ":")
    }

    /// If a declaration `[const] [cg::]thread_block NAME =
    /// [cg::]this_thread_block();` (or `auto NAME = ...`) starts at `k`: the
    /// name's token.
    fn declaration_at(&self, f: &File, k: usize) -> Option<usize> {
        if k > 0 && !matches!(f.text(k - 1), ";" | "{" | "}" | ")") {
            return None; // not a statement's start
        }
        let mut j = k;
        if f.is(j, "const") {
            j += 1;
        }
        if f.is(j, "auto") {
            j += 1;
        } else {
            if self.qualified(f, j) {
                j += 3;
            }
            if !f.is(j, "thread_block") {
                return None;
            }
            j += 1;
        }
        if f.is(j, "const") {
            j += 1;
        }
        let name = j;
        if !f.ident(name) || !f.is(name + 1, "=") {
            return None;
        }
        j = name + 2;
        if self.qualified(f, j) {
            j += 3;
        }
        (f.is(j, "this_thread_block") && f.is(j + 1, "(") && f.is(j + 2, ")") && f.is(j + 3, ";"))
            .then_some(name)
    }

    /// Whether token `k` is the name of a block-group declaration.
    fn declaration_name(&self, f: &File, k: usize) -> bool {
        // The declaration starts at most four tokens before its name.
        (k.saturating_sub(6)..=k).any(|a| self.declaration_at(f, a) == Some(k))
    }

    /// If a block group's declaration statement starts at `k`: its `;`.
    pub(super) fn declaration_end(&self, f: &File, k: usize) -> Option<usize> {
        let name = self.declaration_at(f, k)?;
        if !self.names.contains(f.text(name)) {
            return None;
        }
        (name + 1..f.tokens.len()).find(|&j| f.is(j, ";"))
    }

    /// If the statement at `k` is a block group's barrier, `b.sync();` or
    /// `cg::sync(b);`: its `;`.
    pub(super) fn barrier_end(&self, f: &File, k: usize) -> Option<usize> {
        let named = |j: usize| f.ident(j) && self.names.contains(f.text(j));
        if named(k) && f.is(k + 1, ".") && f.is(k + 2, "sync") && f.is(k + 3, "(") {
            return (f.is(k + 4, ")") && f.is(k + 5, ";")).then_some(k + 5);
        }
        if self.qualified(f, k) && f.is(k + 3, "sync") && f.is(k + 4, "(") && named(k + 5) {
            return (f.is(k + 6, ")") && f.is(k + 7, ";")).then_some(k + 7);
        }
        None
    }

    /// Whether token `k` is the `sync` of a block group's barrier (which the
    /// lane loop takes as it takes `__syncthreads`).
    pub(super) fn is_sync(&self, f: &File, k: usize) -> bool {
        if !f.is(k, "sync") {
            return false;
        }
        (k >= 2 && self.barrier_end(f, k - 2).is_some())
            || (k >= 3 && self.barrier_end(f, k - 3).is_some())
    }

    /// Whether token `k` belongs to what this module lets a kernel's body
    /// hold: a block group's declaration, barrier or lane member call.
    pub(super) fn placed(&self, f: &File, k: usize) -> bool {
        if self.names.is_empty() {
            return false;
        }
        (k.saturating_sub(16)..=k).any(|a| {
            let end = self
                .declaration_end(f, a)
                .or_else(|| self.barrier_end(f, a))
                .or_else(|| {
                    (f.ident(a)
                        && self.names.contains(f.text(a))
                        && f.is(a + 1, ".")
                        && LANE_MEMBERS.contains(&f.text(a + 2))
                        && f.is(a + 3, "(")
                        && f.is(a + 4, ")"))
                    .then_some(a + 4)
                });
            end.is_some_and(|e| k <= e)
        })
    }
}
