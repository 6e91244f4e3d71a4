from prefcalc.cli import main

raise SystemExit(main())
