; Comments are prose: with the `comment` parser installed, TODO/FIXME/NOTE
; in them are highlighted (nothing happens without it).
((comment) @injection.content
  (#set! injection.language "comment"))

((line_comment) @injection.content
  (#set! injection.language "comment"))
