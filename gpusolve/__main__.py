from gpusolve.cli import main

main()
