# common.sh - sourced by make-ami.sh and launch.sh: messages, input
# checks, and the one way both scripts call the AWS CLI (logged without
# secrets, or only printed under --dry-run).
#
# The caller sets PROG (its name, for messages) and DRY_RUN (0 or 1), and
# keeps its real stdout for its one result: commands and progress go to
# stderr, except under --dry-run, where the commands are the output and go
# to the saved stdout (fd 3).
# shellcheck shell=bash

# Intervals between polls, in seconds; EBSBENCH_AMI_POLL_S replaces all of
# them (tests replay recorded answers without waiting).
poll_interval() {
	echo "${EBSBENCH_AMI_POLL_S:-$1}"
}

# say and die (one line on stderr; die MESSAGE [CODE], exit 1 by default,
# 2 for a usage error) are the image scripts' own.
# shellcheck source=image/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# redact: presigned URLs lose their query string (the signature, the
# credential, the session token) and POST-policy signing fields their
# values, wherever they appear in the text.
redact() {
	sed -E \
		-e 's#(https?://[^?[:space:]"'"'"'\\]*)\?[^[:space:]"'"'"'\\]*#\1?REDACTED#g' \
		-e 's#("(policy|signature|x-amz-signature|x-amz-credential|x-amz-security-token|awsaccesskeyid)"[[:space:]]*:[[:space:]]*")[^"]*"#\1REDACTED"#Ig'
}

# redact_config FILE: the config as JSON with every URL's query and every
# POST field's value replaced by REDACTED.
redact_config() {
	jq 'walk(if type == "string" and test("^https?://") then sub("\\?.*$"; "?REDACTED") else . end)
	    | if (.upload.post.fields? | type) == "object"
	      then .upload.post.fields |= with_entries(.value = "REDACTED") else . end' "$1"
}

# quote ARG...: the words as a shell would need them, readable: plain words
# as they are, the rest in single quotes; in $QUOTED (no subshell: polls
# call this often).
quote() {
	local a
	QUOTED=''
	for a in "$@"; do
		if [[ $a =~ ^[A-Za-z0-9_./:=,@%+-]+$ ]]; then
			QUOTED+=" $a"
		else
			QUOTED+=" '${a//\'/\'\\\'\'}'"
		fi
	done
	QUOTED=${QUOTED# }
}

# ---- inputs ------------------------------------------------------------------

# check_region R: a region name as AWS spells them (ap-northeast-2,
# us-gov-west-1, cn-north-1).
check_region() {
	[[ -n $1 ]] || die "no region: give --region (or set AWS_REGION)" 2
	[[ $1 =~ ^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$ ]] ||
		die "--region '$1' is not a region name like ap-northeast-2" 2
}

# need_tools: the AWS CLI v2 and jq, or a one-line error.  Under --dry-run
# only jq: nothing is run against AWS.  Sets AWS_ERR, the file that holds
# the last call's stderr (the caller removes it at exit).
need_tools() {
	command -v jq >/dev/null 2>&1 || die "jq is not on PATH (apt-get install jq)"
	((DRY_RUN)) && return 0
	command -v aws >/dev/null 2>&1 ||
		die "the AWS CLI (aws) is not on PATH: install AWS CLI v2 (https://docs.aws.amazon.com/cli/latest/userguide/getting-started-install.html), or use --dry-run"
	local version
	version=$(aws --version 2>&1 | head -n 1) || true
	[[ $version == aws-cli/2.* ]] ||
		die "needs AWS CLI v2, found '${version:-no version}' (v1 differs in binary parameters and paging)"
	# v2 pipes long output through a pager by default: never here.
	export AWS_PAGER=''
	AWS_ERR=$(mktemp)
}

# ---- the AWS CLI ---------------------------------------------------------------

# aws_do ARG...: run `aws ARG...`, its stdout on our stdout (JSON), its
# error as our one-line error.  The command goes to stderr first, redacted
# (not with AWS_LOG=0: polls).  Under --dry-run it is printed on fd 3 and
# nothing runs (no output).
aws_do() {
	local line
	quote "$@"
	line="aws $QUOTED"
	[[ $line != *[?\"]* ]] || line=$(redact <<<"$line")
	if ((DRY_RUN)); then
		printf '%s\n' "$line" >&3
		return 0
	fi
	[[ ${AWS_LOG:-1} == 0 ]] || printf '%s: $ %s\n' "$PROG" "$line" >&2
	local rc=0
	aws "$@" 2>"$AWS_ERR" || rc=$?
	if ((rc)); then
		local why
		why=$(grep -v '^[[:space:]]*$' "$AWS_ERR" | tail -n 1 | redact)
		die "aws ${1:-} ${2:-} failed (exit $rc): ${why:-no message}"
	fi
}

# aws_query FILTER PLACEHOLDER ARG...: `aws ARG... --output json` through
# jq -r 'FILTER // empty' (may print nothing).  Under --dry-run: prints the
# command (fd 3) and answers PLACEHOLDER.
aws_query() {
	local filter=$1 placeholder=$2
	shift 2
	if ((DRY_RUN)); then
		aws_do "$@" --output json
		printf '%s\n' "$placeholder"
		return 0
	fi
	local out
	out=$(aws_do "$@" --output json) || exit 1
	jq -r "($filter) // empty" <<<"$out" 2>/dev/null ||
		die "aws ${1:-} ${2:-}: cannot read its answer (not JSON?)"
}

# aws_json FILTER PLACEHOLDER ARG...: aws_query, and an empty answer is an
# error naming the call.
aws_json() {
	local value
	value=$(aws_query "$@") || exit 1
	[[ -n $value ]] || die "aws ${3:-} ${4:-}: the answer has no $1"
	printf '%s\n' "$value"
}

# fields VAR... <<<LINE: split a line that aws_query made with
# join("\u001f") into the variables (empty fields kept, as tabs would not).
fields() {
	IFS=$'\x1f' read -r "$@" || true
}

# dry_note TEXT: a comment line among the --dry-run commands.
dry_note() {
	((DRY_RUN)) && printf '# %s\n' "$*" >&3
	return 0
}

# now_ms: milliseconds of wall time (EPOCHREALTIME, bash 5), else whole
# seconds of SECONDS.
now_ms() {
	local t=${EPOCHREALTIME:-}
	if [[ -n $t ]]; then
		t=${t/[.,]/}
		echo $((10#$t / 1000))
	else
		echo $((SECONDS * 1000))
	fi
}

# mmss SECONDS -> "4m05s"
mmss() {
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}
