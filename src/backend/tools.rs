//! Finding the programs the backends run (nvcc, the system C++ compiler):
//! one search of the `PATH`, so that every backend means the same by
//! "found": an executable file.
//!
//! It only finds; asking a program its version or running it is for the
//! backend that needs it.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Where `program` is: a name with a directory (`/usr/bin/g++`,
/// `./tools/c++`) is taken as given when it is a file, made absolute; a bare
/// name is the first executable of that name in the directories of
/// `path_var` (a `PATH` value).
pub(crate) fn find_program(program: &Path, path_var: Option<&OsStr>) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return program
            .is_file()
            .then(|| std::path::absolute(program).ok())
            .flatten();
    }
    std::env::split_paths(path_var.unwrap_or_default())
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

/// Whether `path` is a file this user may run.
#[cfg(unix)]
pub(crate) fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// Whether `path` is a file this user may run.
#[cfg(not(unix))]
pub fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_bare_name_is_the_first_executable_on_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (dir.path().join("a"), dir.path().join("b"));
        for (folder, mode) in [(&first, 0o644), (&second, 0o755)] {
            std::fs::create_dir(folder).unwrap();
            let tool = folder.join("tool");
            std::fs::write(&tool, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let path = std::env::join_paths([&first, &second]).unwrap();
        assert_eq!(
            find_program(Path::new("tool"), Some(&path)),
            Some(second.join("tool")),
            "a file without the executable bit is passed over"
        );
        assert_eq!(find_program(Path::new("missing"), Some(&path)), None);
        assert_eq!(find_program(Path::new("tool"), None), None);
        assert_eq!(
            find_program(&first.join("tool"), None),
            Some(first.join("tool")),
            "a path with a directory is taken as given"
        );
    }
}
