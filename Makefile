# kidled: idle cycle injector for Linux 6.12 -- build, boot and test harness.
# The kernel tree, build output and ccache live in $(KIDLED_CACHE)
# (default /var/cache/kidled), outside the repository.

.PHONY: run seed hotpath bench test check edit export rebase bisect clean help

help:
	@echo "make run     build the patched kernel, boot it in QEMU, show kidled at work"
	@echo "make test    build, boot and run all tests (KUnit + kselftests)"
	@echo "make seed    run the 2010 cover letter's test program in the guest"
	@echo "make hotpath measure the cost of the scheduler hooks (pipe ping-pong)"
	@echo "make bench   kidled vs idle_inject vs cpu.max; report in bench/results/<date>/"
	@echo "make check   checkpatch --strict over the series, and the series applies"
	@echo "make edit    create the developer tree (git, branch kidled) from the series"
	@echo "make export  regenerate patches/ from the developer tree"
	@echo "make rebase  move the series onto the installed linux-source-6.12"
	@echo "make bisect  every prefix of the series builds and boots (slow)"

run:
	@bash harness/run.sh

seed:
	@bash harness/run.sh seed

hotpath:
	@bash harness/run.sh hotpath

bench:
	@bash harness/bench.sh

test:
	@bash harness/test.sh

check:
	@bash harness/check.sh

edit:
	@bash harness/deps.sh && bash harness/tree.sh dev

export:
	@bash harness/export.sh

rebase:
	@bash harness/rebase.sh

clean:
	rm -rf $${KIDLED_CACHE:-/var/cache/kidled}/out

bisect:
	@bash harness/bisect.sh
