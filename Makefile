# Entry points (see README):
#   make demo    install dependencies, build, run a real session
#   make check   install dependencies, build (plain and ASan+UBSan), run all tests
#   make build   plain build into build/
#   make format  clang-format the tree
JOBS ?= 2

.PHONY: all deps build build-asan demo check check-asan format conformance clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build build -j $(JOBS)

build-asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHL_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS)

demo: build
	@./scripts/demo.sh ./build/hivelite

check: build build-asan
	@cd build && ctest --output-on-failure -j $(JOBS)
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

conformance: build
	@python3 ../shared/conformance/run.py --hivelite ./build/hivelite

format:
	@clang-format -i $$(find src include tests -name '*.[ch]')

clean:
	rm -rf build build-asan
