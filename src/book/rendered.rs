//! Rendering the HTML book only when what it is rendered from changed.
//!
//! mdBook's HTML renderer is a pure function of its input: the preprocessed
//! book and the configuration (the [`RenderContext`]), the files it copies or
//! reads beside them (everything under the source folder, the theme folder,
//! the `additional-css` and `additional-js` files) and the renderer itself
//! (this executable, which embeds mdBook's default theme). When none of these
//! changed since the last render and the output on disk is still the one that
//! render wrote, rendering again can only write the same files: the `build`
//! command then leaves the book as it is, which makes an unchanged book's
//! build cost its preprocessing only. `build --fresh` renders regardless.
//!
//! What a render was made from is remembered as a key (a SHA-256 over the
//! context's JSON, the chapter titles, the files' paths, sizes and
//! modification times, and the tool's identity) next to the list of files it
//! left in the output folder with their sizes and modification times, in the
//! emulator's cache directory (`render/`, one stamp per output folder). The
//! stamp is removed before rendering and written after a render that
//! succeeded, so a failed or interrupted render is never taken for a
//! finished one; a file deleted, added or edited in the output folder makes
//! the next build render again.
//!
//! Written here rather than taken from a crate: no crate offers a cache in
//! front of an mdBook renderer; the key is the emulator's [`Fingerprint`]
//! and the stamp is written by `sources::files::write_atomically`.

use crate::emulate::Fingerprint;
use anyhow::{Context, Result};
use mdbook_html::HtmlHandlebars;
use mdbook_renderer::{RenderContext, Renderer};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Bumped when what the key covers changes.
const SCHEME: &str = concat!("mdbook-evidence render 1 ", env!("CARGO_PKG_VERSION"));

/// mdBook's HTML renderer, skipped when its output is up to date.
pub(crate) struct CachedHtml {
    inner: HtmlHandlebars,
    cache_dir: PathBuf,
    fresh: bool,
    skipped: Arc<AtomicBool>,
}

impl CachedHtml {
    /// A renderer that keeps its stamps under `cache_dir/render/`; with
    /// `fresh` it always renders. `skipped` is set when a build left the book
    /// as it was.
    pub(crate) fn new(cache_dir: &Path, fresh: bool, skipped: Arc<AtomicBool>) -> Self {
        CachedHtml {
            inner: HtmlHandlebars::new(),
            cache_dir: cache_dir.to_path_buf(),
            fresh,
            skipped,
        }
    }

    fn stamp_path(&self, destination: &Path) -> PathBuf {
        // Made absolute without resolving links: the folder need not
        // exist yet, and the same path must name the same stamp before and
        // after the first render.
        let destination =
            std::path::absolute(destination).unwrap_or_else(|_| destination.to_path_buf());
        let mut name = Fingerprint::new("render stamp");
        name.add("destination", destination.as_os_str().as_encoded_bytes());
        self.cache_dir
            .join("render")
            .join(format!("{}.json", name.finish()))
    }
}

impl Renderer for CachedHtml {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn render(&self, ctx: &RenderContext) -> Result<()> {
        // A cache folder that is not ours (or cannot be made) is not trusted
        // with stamps: the book is then rendered every time.
        if let Err(why) = crate::emulate::prepare_cache(&self.cache_dir) {
            tracing::debug!("rendering without a stamp: {why}");
            return self.inner.render(ctx);
        }
        let key = render_key(ctx)?;
        let stamp_path = self.stamp_path(&ctx.destination);
        if !self.fresh
            && let Some(stamp) = Stamp::read(&stamp_path)
            && stamp.key == key
            && stamp.files == output_files(&ctx.destination)
        {
            tracing::info!(
                "{} is up to date: nothing it is rendered from changed",
                ctx.destination.display()
            );
            self.skipped.store(true, Ordering::Relaxed);
            return Ok(());
        }
        // A render that fails half-way must not leave a stamp that vouches
        // for what it left.
        match std::fs::remove_file(&stamp_path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(e).with_context(|| format!("removing {}", stamp_path.display()));
            }
        }
        self.inner.render(ctx)?;
        let stamp = Stamp {
            key,
            files: output_files(&ctx.destination),
        };
        if let Err(why) = stamp.write(&stamp_path) {
            // Only the next build's speed depends on it.
            tracing::debug!("could not remember the render: {why:#}");
        }
        Ok(())
    }
}

/// What the render of `ctx` is made of (see the module's doc).
fn render_key(ctx: &RenderContext) -> Result<String> {
    let mut key = Fingerprint::new(SCHEME);
    key.add(
        "tool",
        crate::workflow::reuse::tool_identity()
            .unwrap_or_default()
            .as_bytes(),
    );
    key.add(
        "context",
        &serde_json::to_vec(ctx).context("describing the book to render")?,
    );
    let mut titles: Vec<_> = ctx.chapter_titles.iter().collect();
    titles.sort();
    key.add(
        "titles",
        &serde_json::to_vec(&titles).context("describing the chapter titles")?,
    );
    let html = ctx.config.html_config().unwrap_or_default();
    let mut read = vec![ctx.source_dir(), html.theme_dir(&ctx.root)];
    read.extend(html.additional_css.iter().map(|p| ctx.root.join(p)));
    read.extend(html.additional_js.iter().map(|p| ctx.root.join(p)));
    for path in read {
        let files = files_under(&path, Some(&ctx.destination));
        key.add(
            &path.to_string_lossy(),
            &serde_json::to_vec(&files).context("describing the files read")?,
        );
    }
    Ok(key.finish())
}

/// One file: its path (relative to the folder walked), size and
/// modification time in nanoseconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct FileState(String, u64, u128);

/// The files of the output folder, as a render left them.
fn output_files(destination: &Path) -> Vec<FileState> {
    files_under(destination, None)
}

/// Every file under `root` (or `root` itself when it is a file), sorted by
/// path, leaving out the folder `skip`; an unreadable folder counts as
/// empty.
fn files_under(root: &Path, skip: Option<&Path>) -> Vec<FileState> {
    let mut found = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    if root.is_file() {
        folders.clear();
        found.extend(state(root, root));
    }
    while let Some(folder) = folders.pop() {
        if skip.is_some_and(|skip| folder == skip) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => folders.push(path),
                Ok(_) => found.extend(state(root, &path)),
                Err(_) => {}
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

fn state(root: &Path, path: &Path) -> Option<FileState> {
    let meta = std::fs::metadata(path).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let relative = path.strip_prefix(root).unwrap_or(path);
    Some(FileState(
        relative.to_string_lossy().into_owned(),
        meta.len(),
        modified.as_nanos(),
    ))
}

/// What the last finished render of one output folder was made from, and
/// what it left there.
#[derive(Debug, Serialize, Deserialize)]
struct Stamp {
    key: String,
    files: Vec<FileState>,
}

impl Stamp {
    fn read(path: &Path) -> Option<Stamp> {
        let text = std::fs::read(path).ok()?;
        serde_json::from_slice(&text).ok()
    }

    /// Written whole or not at all.
    fn write(&self, path: &Path) -> Result<()> {
        crate::sources::files::write_atomically(path, &serde_json::to_vec(self)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_under_lists_every_file_once_sorted_and_leaves_out_the_skipped_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::create_dir_all(dir.path().join("out")).unwrap();
        std::fs::write(dir.path().join("z.md"), "z").unwrap();
        std::fs::write(dir.path().join("a/b/c.css"), "cc").unwrap();
        std::fs::write(dir.path().join("out/index.html"), "x").unwrap();
        let files = files_under(dir.path(), Some(&dir.path().join("out")));
        let names: Vec<_> = files.iter().map(|f| (f.0.as_str(), f.1)).collect();
        assert_eq!(names, [("a/b/c.css", 2), ("z.md", 1)]);
        // A single file is its own list.
        let one = files_under(&dir.path().join("z.md"), None);
        assert_eq!(one.len(), 1);
        // A missing path is an empty list, not an error.
        assert!(files_under(&dir.path().join("missing"), None).is_empty());
    }
}
