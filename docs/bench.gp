set terminal pngcairo size 1200,1260 font 'sans,10'
set output 'docs/bench.png'
set termoption noenhanced
set multiplot layout 3,2 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 730.2 925.3 823.6
64 585.8 970.9 858.9
256 941.3 1190.6 969.1
EOD
$a0 << EOD
1 2.086 1.214 1.435
2 3.360 2.006 2.428
3 3.541 1.948 2.547
4 3.560 2.092 2.468
EOD
$w1 << EOD
8 1242.0 2121.5 1398.9
64 1230.4 2392.7 1509.3
256 1446.7 2558.1 1690.2
EOD
$a1 << EOD
1 0.815 0.435 0.653
2 1.354 0.819 1.160
3 1.500 0.877 1.339
4 1.420 0.843 1.266
EOD
$w2 << EOD
8 811.5 1383.6 1020.3
64 851.7 1383.0 1056.9
256 1079.6 1609.4 1195.9
EOD
$a2 << EOD
1 1.169 0.691 0.908
2 2.172 1.311 1.631
3 2.232 1.451 1.793
4 2.113 1.261 1.750
EOD
set title 'x86_64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1547.8]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:4.6]
set style data linespoints
set xtics 1
plot $a0 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:3325.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:2.0]
set style data linespoints
set xtics 1
plot $a1 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64-nopac: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:2092.2]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w2 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-nopac: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:2.9]
set style data linespoints
set xtics 1
plot $a2 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
unset multiplot
