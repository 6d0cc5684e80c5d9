from cli.start_up import main

main()
