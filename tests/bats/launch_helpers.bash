# launch_helpers.bash - what the one-command launch tests share
# (k8s_apply.bats, ec2_launch.bats): the run a fake pod or instance
# uploads, and the check that nothing secret was printed.

# render_fake_run DIR: the fixture's record (results.json recording its
# report.html, as a run's last upload does), rendered into DIR.
render_fake_run() {
	mkdir -p "$1"
	jq '.uploads = [{artifact: "report.html", status: "uploaded"}]' \
		"$BATS_TEST_DIRNAME/../unit/fixtures/results-gp2-gp3.json" >"$1/results.json"
	"$EBSBENCH" report "$1" >/dev/null
}

# secret_free POLICY: neither $output nor $stderr holds $SECRET (the
# secret key), POLICY (the upload policy the launch handed over) or a
# signature.
secret_free() {
	[[ -n $1 && $1 != null ]] || fail "no policy in what was launched"
	[[ $output != *"$SECRET"* && $stderr != *"$SECRET"* ]] || fail "the secret key was printed"
	[[ $output != *"$1"* && $stderr != *"$1"* ]] || fail "the POST policy was printed"
	[[ $output != *X-Amz-* && $stderr != *X-Amz-* && $stderr != *x-amz-signature* ]] ||
		fail "a signature was printed"
}
