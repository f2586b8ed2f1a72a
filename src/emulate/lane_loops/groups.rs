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

use std::collections::{HashMap, HashSet};

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

/// The file's block groups (see the module's doc): where their
/// declarations, barriers and lane member calls stand, found once for the
/// file.
#[derive(Default)]
pub(super) struct BlockGroups {
    /// Each declaration's first token and its `;`.
    declarations: HashMap<usize, usize>,
    /// Each barrier statement's first token and its `;`.
    barriers: HashMap<usize, usize>,
    /// The `sync` token of each barrier.
    syncs: HashSet<usize>,
    /// Every token of a declaration, barrier or lane member call.
    placed: HashSet<usize>,
}

impl BlockGroups {
    pub(super) fn new(f: &File) -> Self {
        let mut namespaces: HashSet<&str> = HashSet::from(["cooperative_groups"]);
        for k in 0..f.tokens.len() {
            // `namespace cg = cooperative_groups;`
            if f.is(k, "namespace")
                && f.ident(k + 1)
                && f.is(k + 2, "=")
                && f.is(k + 3, "cooperative_groups")
                && f.is(k + 4, ";")
            {
                namespaces.insert(f.text(k + 1));
            }
        }
        let qualified = |k: usize| {
            f.ident(k) && namespaces.contains(f.text(k)) && f.is(k + 1, ":") && f.is(k + 2, ":")
        };
        // Each declaration: its first token, its name's and its `;`.
        let declarations: Vec<(usize, usize, usize)> = (0..f.tokens.len())
            .filter_map(|k| declaration_at(f, k, &qualified).map(|(name, semi)| (k, name, semi)))
            .collect();
        let declared: HashSet<usize> = declarations.iter().map(|&(_, name, _)| name).collect();
        // A name is a group's where every use of it is a declaration, a
        // barrier or a lane's member call.
        let mut names: HashSet<&str> = declarations
            .iter()
            .map(|&(_, name, _)| f.text(name))
            .collect();
        for k in 0..f.tokens.len() {
            let s = f.text(k);
            if !f.ident(k) || !names.contains(s) {
                continue;
            }
            let member = f.is(k + 1, ".")
                && (LANE_MEMBERS.contains(&f.text(k + 2)) || f.is(k + 2, "sync"))
                && f.is(k + 3, "(")
                && f.is(k + 4, ")");
            let argument = k >= 5
                && f.is(k - 1, "(")
                && f.is(k - 2, "sync")
                && qualified(k - 5)
                && f.is(k + 1, ")");
            if !(declared.contains(&k) || member || argument) {
                names.remove(s);
            }
        }
        let named = |k: usize| f.ident(k) && names.contains(f.text(k));
        let mut groups = BlockGroups::default();
        for &(first, name, semi) in &declarations {
            if named(name) {
                groups.declarations.insert(first, semi);
                groups.placed.extend(first..=semi);
            }
        }
        for k in 0..f.tokens.len() {
            // `b.sync();`, `cg::sync(b);`, `b.thread_rank()`.
            let (sync, semi) = if named(k) && f.is(k + 1, ".") && f.is(k + 2, "sync") {
                (k + 2, k + 5)
            } else if qualified(k) && f.is(k + 3, "sync") && named(k + 5) {
                (k + 3, k + 7)
            } else {
                if named(k)
                    && f.is(k + 1, ".")
                    && LANE_MEMBERS.contains(&f.text(k + 2))
                    && f.is(k + 3, "(")
                    && f.is(k + 4, ")")
                {
                    groups.placed.extend(k..=k + 4);
                }
                continue;
            };
            if f.is(sync + 1, "(") && f.is(semi - 1, ")") && f.is(semi, ";") {
                groups.barriers.insert(k, semi);
                groups.syncs.insert(sync);
                groups.placed.extend(k..=semi);
            }
        }
        groups
    }

    /// If a block group's declaration statement starts at `k`: its `;`.
    pub(super) fn declaration_end(&self, k: usize) -> Option<usize> {
        self.declarations.get(&k).copied()
    }

    /// If the statement at `k` is a block group's barrier, `b.sync();` or
    /// `cg::sync(b);`: its `;`.
    pub(super) fn barrier_end(&self, k: usize) -> Option<usize> {
        self.barriers.get(&k).copied()
    }

    /// Whether token `k` is the `sync` of a block group's barrier (which the
    /// lane loop takes as it takes `__syncthreads`).
    pub(super) fn is_sync(&self, k: usize) -> bool {
        self.syncs.contains(&k)
    }

    /// Whether token `k` belongs to what this module lets a kernel's body
    /// hold: a block group's declaration, barrier or lane member call.
    pub(super) fn placed(&self, k: usize) -> bool {
        self.placed.contains(&k)
    }
}

/// If a declaration `[const] [cg::]thread_block [const] NAME =
/// [cg::]this_thread_block();` (or `auto NAME = ...`) starts at `k`: the
/// name's token and the `;`. `qualified(j)`: the namespace of cooperative
/// groups and `::` stand at `j`.
fn declaration_at(f: &File, k: usize, qualified: &dyn Fn(usize) -> bool) -> Option<(usize, usize)> {
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
        if qualified(j) {
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
    if qualified(j) {
        j += 3;
    }
    (f.is(j, "this_thread_block") && f.is(j + 1, "(") && f.is(j + 2, ")") && f.is(j + 3, ";"))
        .then_some((name, j + 3))
}
