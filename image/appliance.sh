# shellcheck shell=bash
# appliance.sh - the one reader of image/appliance.conf (the appliance's
# description) and what several scripts derive from it: the shipped kernel
# command line and a staged root tree (initramfs, OCI layer).  Sourced
# after image/lib.sh (say, die, need_packages).

# Every key the description may hold: a typo is an error, not a silent default.
APPLIANCE_KEYS="appliance.name appliance.pretty_name
kernel.source_package kernel.source_version kernel.config_fragment kernel.cmdline
initramfs.dir initramfs.file initramfs.applets initramfs.ca_bundle initramfs.text
initramfs.node initramfs.manifest
uki.stub uki.section
disk.size_mib disk.esp_start disk.esp_sectors disk.esp_label disk.boot_path
disk.disk_guid disk.esp_guid disk.fat_serial
oci.dir oci.file oci.ca_bundle oci.entrypoint oci.cmd oci.path oci.workdir
oci.title oci.description"

# appliance_root: the repository's root (paths in the description are relative to it).
appliance_root() {
	(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
}

# appliance_file: the description read: EBSBENCH_APPLIANCE, else image/appliance.conf.
appliance_file() {
	echo "${EBSBENCH_APPLIANCE:-$(appliance_root)/image/appliance.conf}"
}

# appliance_list KEY: every value of KEY (SECTION.NAME), a line each, in file
# order; nothing when absent.  A malformed line or an unknown key anywhere
# in the file is an error naming its line.
appliance_list() {
	local file values status=0
	file=$(appliance_file)
	[ -r "$file" ] || die "the appliance description $file cannot be read" 2
	# On a bad line awk's last line of output is the error, and it exits 2.
	values=$(awk -v want="$1" -v known="$APPLIANCE_KEYS" -v file="$file" '
	BEGIN { n = split(known, k, /[ \n]+/); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
	function bad(why) { printf "%s:%d: %s: %s\n", file, NR, why, $0; exit 2 }
	/^[ \t]*(#|$)/ { next }
	/^\[[a-z_]+\][ \t]*$/ { section = $0; gsub(/[][ \t]/, "", section); next }
	{
		if (!match($0, /^[a-z_]+[ \t]*=[ \t]*/)) bad("not [section] or key = value")
		key = $0; sub(/[ \t]*=.*/, "", key)
		if (section == "") bad("a key before any [section]")
		if (!((section "." key) in ok)) bad("unknown key " section "." key)
		value = substr($0, RLENGTH + 1); sub(/[ \t]+$/, "", value)
		if (value == "") bad("no value")
		if (section "." key == want) print value
	}' "$file") || status=$?
	[ "$status" -eq 0 ] || die "${values##*$'\n'}" 2
	[ -z "$values" ] || echo "$values"
}

# appliance KEY: the one value of KEY; dies when it is absent or repeated.
appliance() {
	local values
	values=$(appliance_list "$1") || exit
	[ -n "$values" ] || die "$(appliance_file) has no $1" 2
	[ "$(wc -l <<<"$values")" -eq 1 ] || die "$(appliance_file) has $1 more than once" 2
	echo "$values"
}

# appliance_params: the description's kernel parameters, one line.
appliance_params() {
	local params
	params=$(appliance_list kernel.cmdline) || exit
	[ -n "$params" ] || die "$(appliance_file) has no kernel.cmdline" 2
	paste -sd' ' <<<"$params"
}

# appliance_cmdline KERNEL INITRD: the command line the UKI ships: the
# description's parameters and ebsbench.image_digest=sha256:D, D being the
# sha256 of KERNEL followed by INITRD (what ran, named in results.json).
appliance_cmdline() {
	local params digest
	params=$(appliance_params) || exit
	digest=$(cat "$1" "$2" | sha256sum | cut -c1-64)
	echo "$params ebsbench.image_digest=sha256:$digest"
}

# appliance_stage SECTION DIR [SOURCE=PATH...]: the root tree SECTION
# ([initramfs] or [oci]) describes, built in DIR entry by entry in file
# order; SOURCE=PATH takes a file entry's SOURCE from PATH instead (the
# manifest still names SOURCE, so the bytes do not depend on where a build
# put it).  Prints the manifest (DEST sha256:HEX SOURCE [PKG=VERSION], a
# line per file) on stdout, and writes it to the manifest entry's DEST.
appliance_stage() {
	local section=$1 dir=$2 entry kind value manifest="" manifest_dest="" line
	shift 2
	local -A override=()
	# shellcheck disable=SC2034 # read through stage_entry's nameref
	for entry in "$@"; do override[${entry%%=*}]=${entry#*=}; done
	# The whole file is checked here, in this shell: a die inside the
	# process substitution below would go unnoticed.
	appliance_list "$section.dir" >/dev/null
	while IFS= read -r entry; do
		kind=${entry%% *} value=${entry#* }
		case $kind in
		manifest) manifest_dest=$value ;;
		*)
			line=$(stage_entry "$dir" "$kind" "$value" override) || exit
			[ -z "$line" ] || manifest+="$line"$'\n'
			;;
		esac
	done < <(stage_entries "$section")
	if [ -n "$manifest_dest" ]; then
		mkdir -p "$dir$(dirname "$manifest_dest")"
		printf '%s' "$manifest" >"$dir$manifest_dest"
		chmod 0644 "$dir$manifest_dest"
	fi
	printf '%s' "$manifest"
}

# stage_entries SECTION: SECTION's tree entries as "KIND VALUE" lines, in
# the description's order (the reader keeps the order per key only).
stage_entries() {
	local file
	file=$(appliance_file)
	# appliance_stage has had the reader check every line: this only picks.
	awk -v want="$1" '
	/^\[[a-z_]+\][ \t]*$/ { section = $0; gsub(/[][ \t]/, "", section); next }
	section == want && match($0, /^(dir|file|applets|ca_bundle|text|node|manifest)[ \t]*=[ \t]*/) {
		kind = $0; sub(/[ \t]*=.*/, "", kind)
		value = substr($0, RLENGTH + 1); sub(/[ \t]+$/, "", value)
		print kind " " value
	}' "$file"
}

# stage_entry DIR KIND VALUE OVERRIDES: one entry into DIR; prints its
# manifest line, if it has one.  OVERRIDES names appliance_stage's array.
stage_entry() {
	local dir=$1 kind=$2 value=$3 dest mode src pkg path rest
	local -n sources=$4
	read -r dest mode rest <<<"$value"
	case $kind in
	dir) # MODE PATH...
		for path in $mode $rest; do install -d -m "$dest" "$dir$path"; done
		;;
	file)
		read -r src pkg <<<"$rest"
		[ -z "$pkg" ] || need_packages "$pkg"
		path=${sources[$src]:-$src}
		[[ $path == /* ]] || path=$(appliance_root)/$path
		[ -f "$path" ] || die "$src (for $dest) not found${sources[$src]:+ at $path}"
		install -D -m "$mode" "$path" "$dir$dest"
		echo "$dest sha256:$(sha256sum <"$path" | cut -c1-64) $src${pkg:+ $pkg=$(package_version "$pkg")}"
		;;
	applets) stage_applets "$dir" "$dest" "$mode" ;;
	ca_bundle)
		need_packages ca-certificates
		mkdir -p "$dir$(dirname "$dest")"
		"$(appliance_root)/image/ca-bundle.sh" "$dir$dest" >/dev/null || die "no CA bundle"
		echo "$dest sha256:$(sha256sum <"$dir$dest" | cut -c1-64) ca-certificates=$(package_version ca-certificates)"
		;;
	text)
		mkdir -p "$dir$(dirname "$dest")"
		printf '%b\n' "$rest" >"$dir$dest"
		chmod "$mode" "$dir$dest"
		;;
	node)
		mkdir -p "$dir$(dirname "$dest")"
		# shellcheck disable=SC2086 # TYPE MAJOR MINOR
		mknod -m "$mode" "$dir$dest" $rest
		;;
	*) die "$(appliance_file): unknown entry kind $kind" ;;
	esac
}

# stage_applets DIR LINKDIR BUSYBOX: a LINKDIR/NAME link to BUSYBOX (a path
# in the tree) for every applet it lists, where no file is there already.
stage_applets() {
	local dir=$1 links=$2 busybox=$3 target applet
	target=$busybox
	[ "$(dirname "$busybox")" != "$links" ] || target=$(basename "$busybox")
	[ -x "$dir$busybox" ] || die "applets: $busybox is not in the tree (a file entry must come first)"
	mkdir -p "$dir$links"
	for applet in $("$dir$busybox" --list); do
		[ -e "$dir$links/$applet" ] || ln -s "$target" "$dir$links/$applet"
	done
}

# package_version PKG: the installed Debian package's version.
package_version() {
	dpkg-query -W -f='${Version}' "$1"
}
