"use strict";
Prefcalc.start();
