# Shared by scripts/bench.sh and scripts/crash-safety.sh. Only definitions: the caller defines say and die
# and sets the variables each function names.

# --- tools ----------------------------------------------------------------

# Builds $mcpack with `make build` when it is missing and is the default
# binary ($mcpack_default); a missing MCPACK the user named is an error.
ensure_mcpack() {
  if [ ! -x "$mcpack" ]; then
    [ "$mcpack" = "$mcpack_default" ] || die "MCPACK=$mcpack is not an executable file"
    say "building mcpack (make build)"
    make -C "$root" build
  fi
}

apt_updated=0
apt_install() {
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  say "installing $* with apt-get"
  if [ $apt_updated = 0 ]; then
    $sudo apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# have COMMAND: COMMAND is on PATH; or, given a path, that file exists (so
# need also installs data files, such as a colour profile).
have() {
  case "$1" in
    /*) [ -e "$1" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

# need COMMAND PACKAGE: installs Debian's PACKAGE when COMMAND is not on PATH
# (or, given a path, when that file is missing), or says how to. (bench.sh
# and crash-safety.sh run on Linux only.)
need() {
  have "$1" && return
  if ! command -v apt-get >/dev/null 2>&1; then
    die "$1 is missing: install the package that has it ($2 on Debian), then run again"
  elif [ "$(id -u)" -ne 0 ] && ! sudo -n true 2>/dev/null; then
    die "$1 is missing: run 'sudo apt-get install $2' (this script is not root and sudo asks for a password)"
  else
    apt_install "$2"
  fi
  hash -r
  have "$1" || die "$1 is still missing after installing $2"
}

# --- the benchmark master ---------------------------------------------------

# Bump when the recipe below changes, so old masters are made again.
generator_version=1
fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf

stamp_field() { sed -n "s/^$1=//p" "$stamp"; }

# Makes the deterministic $width x $height parchment-like master at $master
# (a .jpg, or a .tif past JPEG's 65,500 px; working in $cache); needs vips
# and $fontfile.
generate_master() {
  local work="$cache/gen-${width}x${height}"
  rm -rf "$work" "$master" "$stamp"
  mkdir -p "$work"
  local tw=2000 th=1500 scale=128
  # One 2000 x 1500 tile of writing on parchment ...
  local latin="Johannes Dei gratia rex Anglie, dominus Hibernie, dux Normannie et Aquitannie, et comes Andegavie, archiepiscopis, episcopis, abbatibus, comitibus, baronibus, justiciariis, forestariis, vicecomitibus, prepositis, ministris et omnibus ballivis et fidelibus suis salutem. Sciatis nos intuitu Dei et pro salute anime nostre et omnium antecessorum et heredum nostrorum, ad honorem Dei et exaltationem sancte Ecclesie, et emendationem regni nostri, per consilium venerabilium patrum nostrorum."
  local text="" i
  for i in 1 2 3 4 5 6 7; do text="$text$latin "; done
  (
    cd "$work"
    vips text text.v "$text" --font "DejaVu Serif 30" --fontfile "$fontfile" \
      --width 1900 --justify --dpi 72 --spacing 14
    vips embed text.v mask0.v 48 38 $tw $th              # crops what does not fit
    vips gaussblur mask0.v mask1.v 0.6                   # a little ink bleed
    vips cast mask1.v mask.v uchar
    vips black black.v $tw $th --bands 3
    vips linear black.v paper0.v "1 1 1" "226 208 172" --uchar
    vips linear black.v ink.v "1 1 1" "58 40 28" --uchar
    vips gaussnoise grain0.v $tw $th --mean 0 --sigma 9 --seed 11
    vips gaussblur grain0.v grain.v 0.7                  # fibre-like grain
    vips add paper0.v grain.v paper1.v
    vips cast paper1.v paper.v uchar
    vips ifthenelse mask.v ink.v paper.v tile.v --blend
    # ... low-frequency mottling, made small and scaled up ...
    local mw=$(( width / scale + 3 )) mh=$(( height / scale + 3 ))
    vips gaussnoise mottle0.v $mw $mh --mean 0 --sigma 40 --seed 23
    vips gaussblur mottle0.v mottle1.v 1.5
    vips cast mottle1.v mottle.v char
    # ... both at full size: the tile repeated, the mottling on top.
    vips embed tile.v full.v 0 0 "$width" "$height" --extend repeat
    vips affine mottle.v mottle-full.v "$scale 0 0 $scale" \
      --oarea "0 0 $width $height" --interpolate bilinear
    # JPEG stops at 65,500 px a side, in a TIFF's strips too: a larger
    # master is a tiled, JPEG-compressed BigTIFF, as large scans are kept.
    if [ "${master##*.}" = tif ]; then
      vips add full.v mottle-full.v "master.tif[compression=jpeg,Q=85,bigtiff,tile,tile_width=256,tile_height=256,strip]"
    else
      vips add full.v mottle-full.v "master.jpg[Q=85,strip]"
    fi
  )
  mv "$work/master.${master##*.}" "$master"
  rm -rf "$work"
}


# ensure_master: makes $master once, with the stamp $stamp beside it
# (generator version, size, sha256, bytes); a master made by another
# generator version is made again. Uses width, height, cache, master, stamp.
ensure_master() {
  if [ -f "$master" ] && [ -f "$stamp" ] && [ "$(stamp_field generator)" = "$generator_version" ]; then
    say "master $master already made (stamp $stamp)"
    return
  fi
  say "making the ${width} x ${height} master (once; kept in bench/cache/)"
  export width height cache master stamp fontfile
  bash -c "set -euo pipefail; $(declare -f generate_master); generate_master" || die "making the master failed"
  printf 'generator=%s\nsize=%sx%s\nsha256=%s\nbytes=%s\n' "$generator_version" "$width" "$height" \
    "$(sha256sum "$master" | cut -d' ' -f1)" "$(wc -c <"$master" | tr -d ' ')" >"$stamp.tmp"
  mv "$stamp.tmp" "$stamp"
}

# --- the 16-bit Adobe RGB master -------------------------------------------

# Bump when the recipe below changes, so old TIFFs are made again.
adobe_version=1
adobe_profile=/usr/share/color/icc/compatibleWithAdobeRGB1998.icc  # Debian's icc-profiles-free

# adobe_options: tiffsave's options for the 16-bit TIFF. A strip TIFF, not
# tiled: what a scanning bureau delivers (128 rows a strip, libvips's default). LZW with the horizontal predictor
# (libvips's default predictor), a common bureau compression. BigTIFF when
# the uncompressed pixels pass 4 GB (34,000 x 24,000 x 3 x 2 bytes is 4.9 GB),
# as a file that size must be: LZW on 16-bit samples may not bring it under
# classic TIFF's 4 GiB.
adobe_options() {
  if [ $(( width * height * 6 )) -gt 4000000000 ]; then echo "compression=lzw,bigtiff"
  else echo "compression=lzw"; fi
}

# ensure_adobe: makes $adobe, the master converted to Adobe RGB (1998) at
# 16 bits per sample (relative colorimetric, the profile embedded), once,
# with the stamp $adobe_stamp beside it; made again when the master (its
# sha256 in $stamp) or the recipe changes. When bench/cache/ has too little
# room it makes nothing and says why in adobe_skip. Sets adobe_made_seconds
# when it made the TIFF.
ensure_adobe() {
  local source_sha; source_sha="$(stamp_field sha256)"
  if [ -f "$adobe" ] && [ -f "$adobe_stamp" ] \
    && [ "$(sed -n 's/^recipe=//p' "$adobe_stamp")" = "$adobe_version" ] \
    && [ "$(sed -n 's/^master_sha256=//p' "$adobe_stamp")" = "$source_sha" ]; then
    say "16-bit Adobe RGB TIFF $adobe already made (stamp $adobe_stamp)"
    return 0
  fi
  rm -f "$adobe" "$adobe_stamp"
  # At most the uncompressed pixels (LZW makes it smaller, by how much
  # depends on the picture), and 64 MB for the TIFF's own overhead.
  local need_kb=$(( width * height * 6 / 1024 + 65536 )) free_kb
  free_kb=$(df -Pk "$cache" | awk 'NR == 2 { print $4 }')
  if [ "$free_kb" -lt "$need_kb" ]; then
    adobe_skip="disk space is short: bench/cache/ has $(( free_kb / 1024 )) MB free, the 16-bit TIFF may take up to $(( need_kb / 1024 )) MB"
    say "$adobe_skip; leaving the 16-bit Adobe RGB TIFF rows out"
    return 0
  fi
  say "making the ${width} x ${height} 16-bit Adobe RGB TIFF, strip, $(adobe_options) (once; up to $(( need_kb / 1024 )) MB of the $(( free_kb / 1024 )) MB free)"
  local started=$SECONDS tmp="$cache/adobe.tmp.tif"
  rm -f "$tmp"
  vips icc_transform "$master" "${tmp}[$(adobe_options)]" "$adobe_profile" \
    --input-profile srgb --depth 16 --intent relative \
    || { rm -f "$tmp"; die "making the 16-bit Adobe RGB TIFF failed (free space in bench/cache/ now: $(df -Pk "$cache" | awk 'NR == 2 { print int($4 / 1024) }') MB)"; }
  mv "$tmp" "$adobe"
  printf 'recipe=%s\nmaster_sha256=%s\noptions=%s\nbytes=%s\nseconds=%s\n' "$adobe_version" "$source_sha" \
    "$(adobe_options)" "$(wc -c <"$adobe" | tr -d ' ')" "$(( SECONDS - started ))" >"$adobe_stamp.tmp"
  mv "$adobe_stamp.tmp" "$adobe_stamp"
  adobe_made_seconds=$(( SECONDS - started ))
  say "made $adobe in $(( SECONDS - started )) s, $(wc -c <"$adobe" | tr -d ' ') bytes"
}

# --- the benchmark project --------------------------------------------------

# bench_project DIR [MASTER]: the example project ($root's bundle.toml and
# assets/) in DIR, with MASTER (default $master; hard-linked, else copied)
# as its document, named master.EXT after MASTER's extension.
bench_project() {
  local dir="$1" source="${2:-$master}"
  local name="master.${source##*.}"
  mkdir -p "$dir/assets/document"
  for item in icon launch categories clauses.toml; do
    cp -R "$root/assets/$item" "$dir/assets/$item"
  done
  ln -f "$source" "$dir/assets/document/$name" 2>/dev/null \
    || cp "$source" "$dir/assets/document/$name"
  grep -q '^image = ' "$root/bundle.toml" || die "bundle.toml has no 'image = ' line to point at the master"
  sed "s|^image = \"[^\"]*\"|image = \"assets/document/$name\"|" "$root/bundle.toml" >"$dir/bundle.toml"
}

# --- timed runs -------------------------------------------------------------

# Folders a run is done with are moved into $trash, and deleted only after
# the timings: deleting thousands of files just before a timed build slows
# its own file creation (ext4 skips recently freed inodes).
aside() { local p; for p; do [ ! -e "$p" ] || mv "$p" "$(mktemp -d "$trash/XXXXXX")/"; done; }

# Clause 1's translation in $project, edited anew on each call (a one-clause
# rebuild).
edit_clause() {
  awk -v tag="Benchmark edit $RANDOM$RANDOM: " '
    /^id = "1"$/ { in_clause = 1 }
    in_clause && prev ~ /^translation = """\\$/ && !done { sub(/^  /, "  " tag); done = 1 }
    { print; prev = $0 }' "$root/assets/clauses.toml" >"$project/assets/clauses.toml"
}

# tag_clause FILE ID TAG: TAG put in front of clause ID's translation in the
# clauses.toml FILE, in place; edits add up, so versions made one after the
# other differ by one clause each.
tag_clause() {
  awk -v id="$2" -v tag="$3" '
    $0 == "id = \"" id "\"" { in_clause = 1 }
    in_clause && prev ~ /^translation = """\\$/ && !done { sub(/^  /, "  " tag); done = 1 }
    { print; prev = $0 }' "$1" >"$1.tmp"
  mv "$1.tmp" "$1"
}

# --- a channel served over HTTP ---------------------------------------------

# serve_folder ROOT DIR: $nginx serving ROOT on loopback, in the foreground
# of a background job (no daemon, no master: one process, whose pid is
# served_pid), its configuration and logs in DIR; sets served_port. The
# access log, DIR/access.log, has a line a request: path, status, body bytes
# sent. nginx takes no port 0, so a free port is found by trying.
serve_folder() {
  local folder="$1" dir="$2" port attempt
  mkdir -p "$dir/temp"
  for attempt in $(seq 20); do
    port=$((20000 + RANDOM % 40000))
    cat >"$dir/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 64; }
http {
    log_format paths '\$uri \$status \$body_bytes_sent';
    access_log $dir/access.log paths;
    client_body_temp_path $dir/temp/body;
    proxy_temp_path $dir/temp/proxy;
    fastcgi_temp_path $dir/temp/fastcgi;
    uwsgi_temp_path $dir/temp/uwsgi;
    scgi_temp_path $dir/temp/scgi;
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$port;
        root $folder;
        location ~ ^/channel/index\\.json { add_header Cache-Control no-cache; }
    }
}
CONF
    "$nginx" -p "$dir" -c "$dir/nginx.conf" >/dev/null 2>&1 &
    served_pid=$!
    for _ in $(seq 100); do
      [ -z "$(jobs -rp | grep -x "$served_pid")" ] && break  # exited: the port was taken
      if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then served_port=$port; return 0; fi
      sleep 0.05
    done
    kill "$served_pid" 2>/dev/null || true
    wait "$served_pid" 2>/dev/null || true
  done
  die "nginx did not start in $attempt tries; see $dir/error.log"
}
