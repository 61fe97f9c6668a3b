# lit configuration for Collectivize's tool tests.
import os

import lit.formats

config.name = "Collectivize"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test", ".c", ".cpp"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cz_obj_root, "tests", "lit")

# FileCheck, not, count come from LLVM; the tool under test by substitution.
config.environment["PATH"] = os.pathsep.join(
    [config.cz_llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%collectivize", config.cz_collectivize))
# Writes a small fixture trace (tests/unit/trace_fixture_tool.cpp).
config.substitutions.append(("%cz-trace-fixture", config.cz_trace_fixture))
# The runtime's algorithms step by step (report/tools/step_export.c).
config.substitutions.append(("%cz-step-export", config.cz_step_export))
# The hand-made collectives of examples/manual-collectives, built.
config.substitutions.append(("%cz-examples", config.cz_examples))
config.substitutions.append(("%mpirun", config.cz_mpiexec +
                             " --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1"))
# The instrumenter (clang-plugin/): tests say `REQUIRES: clang-tools`.
if config.cz_clang_tools:
    config.available_features.add("clang-tools")
    # Before "%collectivize", which is a prefix of these.
    config.substitutions.insert(0, ("%collectivize-cc", config.cz_wrapper_cc))
    config.substitutions.insert(0, ("%collectivize-c\+\+", config.cz_wrapper_cxx))
    config.substitutions.append(("%cz-plugin", config.cz_plugin))
    config.substitutions.append(("%clang", config.cz_clang))
config.substitutions.append(("%mpicc", config.cz_mpicc))
config.substitutions.append(("%python", config.cz_python))
config.substitutions.append(("%cz-trace-libdir", os.path.dirname(config.cz_trace_lib)))
config.substitutions.append(("%cz-trace-lib", config.cz_trace_lib))
config.substitutions.append(("%cz-src", config.cz_src_root))
# Checks that every site id in a `trace dump` is in the site database(s).
config.substitutions.append(("%cz-check-trace-sites", config.cz_python + " " + os.path.join(
    config.cz_src_root, "tests/lit/instrument/Inputs/check_trace_sites.py")))
# The user's environment must not steer the runtime under test.
for var in list(os.environ):
    if var.startswith("COLLECTIVIZE_"):
        config.environment.pop(var, None)
