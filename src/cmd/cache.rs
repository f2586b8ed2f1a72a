//! `mdbook-evidence cache --stats | --clean`: what the emulator's build
//! cache holds, and emptying it (it is always safe to lose: what it held is
//! rebuilt on the next run).

use crate::cmd::Status;

/// Show or empty the emulator's build cache.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("action").required(true)))]
pub struct Args {
    /// Print where the cache is, how many programs it holds and its size.
    #[arg(long, group = "action")]
    pub stats: bool,
    /// Remove everything in the cache.
    #[arg(long, group = "action")]
    pub clean: bool,
}

pub(crate) fn execute(args: Args) -> anyhow::Result<Status> {
    let dir = crate::emulate::default_cache_dir();
    if args.clean {
        let freed = crate::emulate::clean_cache(&dir)?;
        println!("emptied {} ({} freed)", dir.display(), size(freed));
    } else {
        let (programs, bytes) = crate::emulate::cache_stats(&dir);
        println!(
            "{}: {programs} program{}, {} in all",
            dir.display(),
            if programs == 1 { "" } else { "s" },
            size(bytes)
        );
    }
    Ok(Status::Success)
}

fn size(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}
