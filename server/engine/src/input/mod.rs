//! Bytes as files and archives hold them, made text: compressed streams
//! (gzip, bzip2, xz, zstd; zip archives' members) and the encodings of old
//! files (UTF-8, UTF-16, the Cyrillic and Western code pages). Readers and
//! bytes in, bytes and text out: the front ends open the files (the command
//! line streams them, the web page is given them whole), and all read them
//! alike.

pub mod compressed;
pub mod encoding;
